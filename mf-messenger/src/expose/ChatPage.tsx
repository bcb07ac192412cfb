// Exposed to the shell as mf_messenger/ChatPage. Importing i18n and styles here registers them when the shell loads it.
import '../i18n';
import '../styles.css';
import { ChatPage } from '../features/chat/ChatPage';

export default ChatPage;
