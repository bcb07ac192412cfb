import { Link } from '@messenger/router';
import { useTranslation } from 'react-i18next';

const SECTIONS = ['collect', 'use', 'storage', 'retention', 'choices', 'contact'] as const;

/** The privacy policy the profile links to: what we keep, why, for how long, and what the person can do. */
export function PrivacyPage() {
  const { t } = useTranslation('shell');
  return (
    <main className="shell-page">
      <article className="shell-article">
        <h1>{t('privacy.title')}</h1>
        <p>{t('privacy.intro')}</p>
        {SECTIONS.map((section) => (
          <section key={section}>
            <h2>{t(`privacy.${section}Title`)}</h2>
            <p>{t(`privacy.${section}`)}</p>
          </section>
        ))}
        <p>
          <Link to="/">{t('privacy.back')}</Link>
        </p>
      </article>
    </main>
  );
}
