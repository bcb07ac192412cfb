import { ApiClient } from './client';
import { ApiError } from './errors';
import { tokenStorage } from '../storage/tokens';

/** Just enough of a fetch Response (jsdom has none). */
function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: '',
    headers: { get: (name: string) => headers[name.toLowerCase()] ?? null },
    json: async () => body,
  } as unknown as Response;
}

describe('API client', () => {
  beforeEach(() => {
    tokenStorage.clear();
    tokenStorage.save({ access_token: 'old-access', refresh_token: 'refresh-1' });
  });

  it('adds the access token and turns {error, message} into an ApiError', async () => {
    const calls: Array<[string, RequestInit]> = [];
    const client = new ApiClient('/api', async (url, init) => {
      calls.push([String(url), init!]);
      return json(404, { error: 'chat_not_found', message: "chat isn't available anymore" });
    });
    const failure = client.get('/chat/5', { a: 1, b: undefined });
    await expect(failure).rejects.toMatchObject({ status: 404, code: 'chat_not_found', message: "chat isn't available anymore" });
    expect(calls[0]![0]).toBe('/api/chat/5?a=1');
    expect((calls[0]![1].headers as Record<string, string>).authorization).toBe('Bearer old-access');
  });

  it('refreshes once for all concurrent 401s, then retries each once', async () => {
    let refreshes = 0;
    const client = new ApiClient('/api', async (url, init) => {
      const auth = (init!.headers as Record<string, string>).authorization;
      if (String(url) === '/api/auth/refresh') {
        refreshes += 1;
        expect(auth).toBe('Bearer refresh-1');
        await new Promise((resolve) => setTimeout(resolve, 20));
        return json(200, { jwt_info: { access_token: 'new-access', refresh_token: 'refresh-2' } });
      }
      return auth === 'Bearer new-access' ? json(200, { ok: String(url) }) : json(401, { error: 'invalid_token', message: 'expired' });
    });
    const results = await Promise.all([client.get('/a'), client.get('/b'), client.get('/c')]);
    expect(results).toEqual([{ ok: '/api/a' }, { ok: '/api/b' }, { ok: '/api/c' }]);
    expect(refreshes).toBe(1);
    expect(tokenStorage.access).toBe('new-access');
    expect(tokenStorage.refresh).toBe('refresh-2');
  });

  it('ends the session when the refresh is refused', async () => {
    const ended = jest.fn();
    const client = new ApiClient('/api', async (url) =>
      String(url) === '/api/auth/refresh' ? json(401, { error: 'refresh_token_reused', message: 'reused' }) : json(401, { error: 'x', message: 'y' }),
    );
    client.setSessionEndedHandler(ended);
    await expect(client.get('/user')).rejects.toBeInstanceOf(ApiError);
    expect(ended).toHaveBeenCalledTimes(1);
    // With the server's reason, for the sign-in page to show (a blocked person is told so).
    expect(ended.mock.calls[0][0]).toMatchObject({ status: 401, code: 'refresh_token_reused' });
    expect(tokenStorage.hasSession()).toBe(false);
  });

  it('keeps the session when the refresh fails for want of a network', async () => {
    const ended = jest.fn();
    const client = new ApiClient('/api', async (url) => {
      if (String(url) === '/api/auth/refresh') throw new TypeError('Failed to fetch');
      return json(401, { error: 'x', message: 'y' });
    });
    client.setSessionEndedHandler(ended);
    await expect(client.get('/user')).rejects.toMatchObject({ code: 'network' });
    expect(ended).not.toHaveBeenCalled();
    expect(tokenStorage.refresh).toBe('refresh-1');
  });

  it('never refreshes on a sign-in call: a 401 there is a wrong code', async () => {
    const fetchImpl = jest.fn(async () => json(401, { error: 'code_invalid', message: 'Wrong code' }));
    const client = new ApiClient('/api', fetchImpl);
    await expect(client.request('POST', '/auth/sign-in', { body: {}, auth: false })).rejects.toMatchObject({ message: 'Wrong code' });
    expect(fetchImpl).toHaveBeenCalledTimes(1);
  });

  it('never refreshes on a wrong current password: the one try is counted once', async () => {
    const calls: string[] = [];
    const client = new ApiClient('/api', async (url) => {
      calls.push(String(url));
      return json(401, { error: 'wrong_password', message: 'Wrong password' });
    });
    await expect(client.post('/user/password', { current_password: 'typo' })).rejects.toMatchObject({ status: 401, code: 'wrong_password' });
    expect(calls).toEqual(['/api/user/password']);
    expect(tokenStorage.refresh).toBe('refresh-1');
  });

  it('reads Retry-After into the error', async () => {
    const client = new ApiClient('/api', async () => json(429, { error: 'code_resend_too_soon', message: 'wait' }, { 'retry-after': '42' }));
    await expect(client.get('/x')).rejects.toMatchObject({ status: 429, retryAfterSeconds: 42 });
  });
});

describe('the wire contract, in development and tests', () => {
  const contact = { id: 7, alias_name: 'Bob', name: 'Bob', username: null, phone: '+4915100000001', avatar: null, is_deleted_contact: false, deleted: false };

  it('passes an answer its route allows', async () => {
    const client = new ApiClient('/api', async () => json(200, { contacts: [contact] }));
    await expect(client.get('/user/contacts')).resolves.toEqual({ contacts: [contact] });
  });

  it('fails loudly on an answer outside its route contract, saying where (in the console as well)', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { phone: _dropped, ...withoutPhone } = contact;
    const client = new ApiClient('/api', async () => json(200, { contact: withoutPhone }));
    await expect(client.put('/user/contacts/edit', { user_id: 7, name: 'Bob' })).rejects.toThrow(
      /^PUT \/user\/contacts\/edit answered outside the contract: \/contact .*phone/,
    );
    const removed = new ApiClient('/api', async () => json(200, { deleted: 'yes' }));
    await expect(removed.delete('/user/contacts/7')).rejects.toMatchObject({ name: 'ContractError' });
    expect(logged).toHaveBeenCalledTimes(2);
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ name: 'ContractError' }));
    logged.mockRestore();
  });

  it('takes a path for a route with a parameter only when the parameter is what that route takes', async () => {
    // `/chat/recording` is a route of its own, not the chat whose id is "recording".
    const recording = new ApiClient('/api', async () => json(200, { chat_id: 7, recording: true }));
    await expect(recording.get('/chat/recording', { chat_id: 7 })).resolves.toEqual({ chat_id: 7, recording: true });
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const chat = new ApiClient('/api', async () => json(200, { chat_id: 7, recording: true }));
    await expect(chat.get('/chat/7')).rejects.toMatchObject({ name: 'ContractError' });
    logged.mockRestore();
  });
});
