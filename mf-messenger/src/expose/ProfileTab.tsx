// Exposed to the shell as mf_messenger/ProfileTab. Importing i18n and styles here registers them when the shell loads it.
import '../i18n';
import '../styles.css';
import { ProfileTab } from '../features/profile/ProfileTab';

export default ProfileTab;
