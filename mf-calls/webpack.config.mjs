import { federatedConfig } from '@messenger/build-config/webpack';

export default federatedConfig({
  dir: import.meta.dirname,
  port: 3002,
  name: 'mf_calls',
  exposes: {
    './CallsTab': './src/expose/CallsTab.tsx',
    './CallLayer': './src/expose/CallLayer.tsx',
    './MeetingPage': './src/expose/MeetingPage.tsx',
  },
});
