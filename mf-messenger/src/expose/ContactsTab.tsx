// Exposed to the shell as mf_messenger/ContactsTab. Importing i18n and styles here registers them when the shell loads it.
import '../i18n';
import '../styles.css';
import { ContactsTab } from '../features/contacts/ContactsTab';

export default ContactsTab;
