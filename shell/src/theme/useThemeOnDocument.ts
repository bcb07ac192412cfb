import { useEffect } from 'react';
import { useSettingsStore } from '@messenger/shared';

/** Light (default) or dark theme and the background pattern, as attributes the stylesheets key on. */
export function useThemeOnDocument(): void {
  const theme = useSettingsStore((state) => state.theme);
  const pattern = useSettingsStore((state) => state.backgroundPattern);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    document.documentElement.dataset.pattern = pattern ? 'on' : 'off';
  }, [theme, pattern]);
}
