import { errorText, useAuthStore, useNotificationsStore, userApi, type EditProfileInput } from '@messenger/shared';

/**
 * Saves account settings (kept on the server, so every device follows them): shown at once, put back as they
 * were with a message if the server refuses.
 */
export async function saveSettings(changes: EditProfileInput): Promise<void> {
  const previous = useAuthStore.getState().user;
  if (previous) useAuthStore.getState().setUser({ ...previous, ...changes });
  try {
    useAuthStore.getState().setUser(await userApi.edit(changes));
  } catch (error) {
    if (previous) useAuthStore.getState().setUser(previous);
    useNotificationsStore.getState().push({ kind: 'error', text: errorText(error, 'messenger:profile.settingsError') });
  }
}
