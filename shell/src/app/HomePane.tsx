import { useTranslation } from 'react-i18next';

/** The main pane when no chat is open (wide screens only; narrow ones show the side bar instead). */
export function HomePane() {
  const { t } = useTranslation('shell');
  return (
    <div className="shell-home-pane">
      <p>{t('home.selectChat')}</p>
    </div>
  );
}
