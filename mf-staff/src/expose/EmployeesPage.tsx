// Exposed to the shell as mf_staff/EmployeesPage.
import '../i18n';
import '../styles.css';
import { EmployeesPage } from '../features/employees/EmployeesPage';

export default EmployeesPage;
