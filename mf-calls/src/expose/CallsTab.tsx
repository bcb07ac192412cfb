// Exposed to the shell as mf_calls/CallsTab.
import '../i18n';
import '../styles.css';
import { CallsTab } from '../features/call-list/CallsTab';

export default CallsTab;
