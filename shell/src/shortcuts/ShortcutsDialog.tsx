import { useTranslation } from 'react-i18next';
import { Modal } from '@messenger/shared';

/** The mod key as this computer names it. */
const MOD = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl';

const ROWS: Array<{ keys: string[][]; action: string }> = [
  { keys: [[MOD, 'K']], action: 'shortcuts.search' },
  { keys: [['Alt', '↑']], action: 'shortcuts.previousChat' },
  { keys: [['Alt', '↓']], action: 'shortcuts.nextChat' },
  { keys: [['Enter']], action: 'shortcuts.send' },
  { keys: [['Shift', 'Enter']], action: 'shortcuts.newLine' },
  { keys: [['Esc']], action: 'shortcuts.close' },
  { keys: [['?'], [MOD, '/']], action: 'shortcuts.help' },
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
                {row.keys.map((combo, index) => (
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
