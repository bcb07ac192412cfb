import { addTranslations } from '@messenger/shared';
import en from './locales/en.json';
import ru from './locales/ru.json';
import tr from './locales/tr.json';
import es from './locales/es.json';
import it from './locales/it.json';
import de from './locales/de.json';
import fr from './locales/fr.json';

export const NAMESPACE = 'calls';
addTranslations(NAMESPACE, { en, ru, tr, es, it, de, fr });
