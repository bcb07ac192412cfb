import { federatedConfig } from '@messenger/build-config/webpack';

export default federatedConfig({
  dir: import.meta.dirname,
  name: 'mf_calls',
  exposes: {
    './CallsTab': './src/expose/CallsTab.tsx',
  },
});
