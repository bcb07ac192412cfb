// Exposed to the shell as mf_staff/FilesPage.
import '../i18n';
import '../styles.css';
import { FilesPage } from '../features/files/FilesPage';

export default FilesPage;
