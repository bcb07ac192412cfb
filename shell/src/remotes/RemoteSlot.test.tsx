import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initI18n } from '../i18n';
import { RemoteSlot } from './RemoteSlot';
import { loadExposed } from './registry';

jest.mock('./registry', () => ({
  Remotes: { messenger: 'mf_messenger', calls: 'mf_calls', staff: 'mf_staff' },
  loadExposed: jest.fn(),
}));

beforeAll(() => {
  initI18n();
});

test('shows a translated fallback when a remote cannot load, and loads it on retry', async () => {
  const load = jest.mocked(loadExposed);
  load.mockRejectedValueOnce(new Error('remote down'));
  load.mockResolvedValueOnce({ default: ({ greeting }: { greeting: string }) => <p>{greeting}</p> });
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  jest.spyOn(console, 'error').mockImplementation(() => undefined);

  render(<RemoteSlot remote="mf_calls" module="CallsTab" props={{ greeting: 'Hello from the remote' }} />);
  expect(await screen.findByText('This part of Messenger could not be loaded.')).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
  expect(await screen.findByText('Hello from the remote')).toBeInTheDocument();
  expect(load).toHaveBeenLastCalledWith('mf_calls', 'CallsTab', true);
});
