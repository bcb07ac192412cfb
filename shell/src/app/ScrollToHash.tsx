import { useEffect } from 'react';
import { useLocation } from '@messenger/router';

/** Spec §2: navigation scrolls smoothly to a hash target, else to the top. */
export function ScrollToHash() {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (target) target.scrollIntoView({ behavior: 'smooth' });
    else window.scrollTo?.({ top: 0, behavior: 'smooth' });
  }, [pathname, hash]);
  return null;
}
