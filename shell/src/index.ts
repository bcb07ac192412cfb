// A meeting tab (an accepted call) starts the camera, the ticket and the connection with the call now, while
// everything below loads. Bundled into this entry chunk on purpose (a subpath of its own, not the shared
// singleton): it needs nothing that module federation provides.
import { beginMeetingHeadStart } from '@messenger/shared/meeting-head-start';

beginMeetingHeadStart();

// The async boundary module federation needs: shared modules are negotiated before anything imports React.
import('./bootstrap');
