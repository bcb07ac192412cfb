// Exposed to the shell as mf_calls/MeetingPage: the meeting room an accepted call opens (`/meet/{room_id}`).
import '../i18n';
import '../styles.css';
import { MeetingPage } from '../features/call-layer/MeetingPage';

export default MeetingPage;
