import { federatedConfig } from '@messenger/build-config/webpack';

// The host: no exposes; remotes are registered at run time from /remotes.json, never baked in.
export default federatedConfig({
  dir: import.meta.dirname,
  port: 3000,
  name: 'shell',
  title: 'Messenger',
  favicon: 'src/favicon.ico',
  runtimePlugins: ['src/remotes/runtime-plugin.ts'],
});
