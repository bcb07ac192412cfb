import { jestConfig } from '@messenger/build-config/jest';

export default jestConfig(import.meta.dirname, 'mf-messenger');
