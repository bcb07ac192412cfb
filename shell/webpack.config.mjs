import { federatedConfig, serviceWorkerConfig } from '@messenger/build-config/webpack';

export default [
  // The host: no exposes; remotes are registered at run time from /remotes.json, never baked in.
  federatedConfig({
    dir: import.meta.dirname,
    port: 3000,
    name: 'shell',
    title: 'Messenger',
    favicon: 'src/favicon.ico',
    runtimePlugins: ['src/remotes/runtime-plugin.ts'],
  }),
  // /sw.js (push notifications, the offline page), /manifest.webmanifest and /icons: installable.
  serviceWorkerConfig({ dir: import.meta.dirname, after: 'shell', entry: './src/service-worker/index.ts', staticDir: 'src/pwa' }),
];
