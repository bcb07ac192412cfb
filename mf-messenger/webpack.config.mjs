import { federatedConfig } from '@messenger/build-config/webpack';

export default federatedConfig({
  dir: import.meta.dirname,
  port: 3001,
  name: 'mf_messenger',
  exposes: {
    './ChatsTab': './src/expose/ChatsTab.tsx',
    './ContactsTab': './src/expose/ContactsTab.tsx',
    './ProfileTab': './src/expose/ProfileTab.tsx',
    './ChatPage': './src/expose/ChatPage.tsx',
  },
});
