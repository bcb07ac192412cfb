import { whenPhoneRulesLoad } from '../rules/phone';
import { useChatsStore } from './chats';
import { useContactsStore } from './contacts';
import { useUsersStore } from './users';

// A person without a name or username is named by the phone the viewer may see (`displayName`), in its E.164
// form until the phone rules are loaded (they are not part of a first load). When they come, the people and
// chats those names are computed from are handed out anew, so that every list, header and memo computes them
// again, formatted; contacts are sorted again by the formatted names.
whenPhoneRulesLoad(() => {
  useUsersStore.setState((state) => ({ profiles: { ...state.profiles } }));
  useContactsStore.getState().resort();
  useChatsStore.setState((state) => ({ chats: [...state.chats] }));
});
