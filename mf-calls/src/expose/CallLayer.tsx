// Exposed to the shell as mf_calls/CallLayer: the call window, incoming calls and call notices, over every page.
import '../i18n';
import '../styles.css';
import { CallLayer } from '../features/call-layer/CallLayer';

export default CallLayer;
