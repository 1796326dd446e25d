// Fails the unit run if a test wrote into the project's .inbox/ (see jest.global-setup.ts).
export { afterUnitTests as default } from './jest.global-setup';
