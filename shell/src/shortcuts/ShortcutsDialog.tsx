import { useTranslation } from 'react-i18next';
import { Modal, Shortcuts, shortcutKeys, type Shortcut } from '@messenger/shared';

/** The mod key as this computer names it. */
const MOD = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl';

/** What each shortcut does; its keys come from the same list the handlers match. */
const ROWS: Array<{ shortcuts: Shortcut[]; action: string }> = [
  { shortcuts: [Shortcuts.search], action: 'shortcuts.search' },
  { shortcuts: [Shortcuts.previousChat], action: 'shortcuts.previousChat' },
  { shortcuts: [Shortcuts.nextChat], action: 'shortcuts.nextChat' },
  { shortcuts: [Shortcuts.send], action: 'shortcuts.send' },
  { shortcuts: [Shortcuts.newLine], action: 'shortcuts.newLine' },
  { shortcuts: [Shortcuts.editLast], action: 'shortcuts.editLast' },
  { shortcuts: [Shortcuts.close], action: 'shortcuts.close' },
  { shortcuts: [Shortcuts.helpKey, Shortcuts.help], action: 'shortcuts.help' },
];

/** Every keyboard shortcut, with the keys as this computer names them. */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('shell');
  return (
    <Modal title={t('shortcuts.title')} onClose={onClose}>
      <table className="shell-shortcuts">
        <thead className="visually-hidden">
          <tr>
            <th scope="col">{t('shortcuts.action')}</th>
            <th scope="col">{t('shortcuts.keys')}</th>
          </tr>
        </thead>
        <tbody>
          {ROWS.map((row) => (
            <tr key={row.action}>
              <th scope="row">{t(row.action)}</th>
              <td>
                {row.shortcuts.map((shortcut) => shortcutKeys(shortcut, MOD)).map((combo, index) => (
                  <span key={combo.join('+')}>
                    {index > 0 && ` ${t('shortcuts.or')} `}
                    {combo.map((key, position) => (
                      <span key={key}>
                        {position > 0 && '+'}
                        <kbd>{key}</kbd>
                      </span>
                    ))}
                  </span>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Modal>
  );
}
