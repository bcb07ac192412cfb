// Exposed to the shell as mf_staff/StatisticsPage.
import '../i18n';
import '../styles.css';
import { StatisticsPage } from '../features/statistics/StatisticsPage';

export default StatisticsPage;
