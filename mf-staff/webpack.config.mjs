import { federatedConfig } from '@messenger/build-config/webpack';

export default federatedConfig({
  dir: import.meta.dirname,
  port: 3003,
  name: 'mf_staff',
  exposes: {
    './StatisticsPage': './src/expose/StatisticsPage.tsx',
    './EmployeesPage': './src/expose/EmployeesPage.tsx',
    './FilesPage': './src/expose/FilesPage.tsx',
  },
});
