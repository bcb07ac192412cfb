import { TemporaryLoginModal, useTemporaryLoginStore } from '@messenger/shared';

/** The temporary-login modal, wherever a guest reached for something only full accounts have. */
export function GuestSignIn() {
  const open = useTemporaryLoginStore((state) => state.open);
  const hide = useTemporaryLoginStore((state) => state.hide);
  return open ? <TemporaryLoginModal onClose={hide} /> : null;
}
