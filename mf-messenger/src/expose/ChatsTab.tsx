// Exposed to the shell as mf_messenger/ChatsTab. Importing i18n and styles here registers them when the shell loads it.
import '../i18n';
import '../styles.css';
import { ChatsTab } from '../features/chat-list/ChatsTab';

export default ChatsTab;
