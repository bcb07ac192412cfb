import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './helpers/server.js';
import { events, nextEvent, openFlow, privateChat, request, signUp, upload } from './helpers/client.js';

describe('profile changes reach others live (user-updated)', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it('tells chat partners and people who have them as a contact, each with what they may see, and nobody else', async () => {
    const anna = await signUp(server, { name: 'Anna' });
    const boris = await signUp(server, { name: 'Boris' }); // shares a chat with Anna, has her as a contact
    const carl = await signUp(server, { name: 'Carl' }); // shares a chat with Anna, no contact
    const dora = await signUp(server, { name: 'Dora' }); // has Anna as a contact, no chat
    const eve = await signUp(server, { name: 'Eve' }); // nothing to do with Anna
    await privateChat(server, anna, boris);
    await privateChat(server, anna, carl); // Anna adds Carl; Carl does not have her as a contact
    for (const owner of [boris, dora]) {
      const added = await request(server, 'POST', '/user/contacts/add', { token: owner.token, body: { user_phone: anna.phone, name: 'A.' } });
      assert.equal(added.status, 200);
    }
    const flows = await Promise.all([anna, boris, carl, dora, eve].map((person) => openFlow(server, person)));
    const [annaFlow, borisFlow, carlFlow, doraFlow, eveFlow] = flows;
    try {
      const edited = await request(server, 'PUT', '/user/edit', { token: anna.token, body: { name: 'Anna K.', username: 'anna_k' } });
      assert.equal(edited.status, 200);
      const isUpdate = (event: any) => event.event_type === 'user-updated';

      const toBoris = await nextEvent(borisFlow!, isUpdate);
      assert.deepEqual(toBoris.additional_info.user, { id: anna.id, name: 'Anna K.', username: 'anna_k', avatar: null, role: 0, deleted: false, phone: anna.phone });
      const toDora = await nextEvent(doraFlow!, isUpdate);
      assert.equal(toDora.additional_info.user.phone, anna.phone, 'a contact typed the phone in');
      const toCarl = await nextEvent(carlFlow!, isUpdate);
      assert.equal(toCarl.additional_info.user.name, 'Anna K.');
      assert.equal('phone' in toCarl.additional_info.user, false, 'no phone for someone who only shares a chat');
      const toAnna = await nextEvent(annaFlow!, isUpdate);
      assert.equal(toAnna.additional_info.user.phone, anna.phone, 'her own other tabs');

      // Eve hears nothing; a settings-only change tells nobody.
      await request(server, 'PUT', '/user/edit', { token: anna.token, body: { sound_notifications: false } });
      const picture = await upload(server, anna);
      assert.equal(picture.status, 201);
      await request(server, 'PUT', '/user/edit', { token: anna.token, body: { avatar: picture.body.file.path } });
      const withAvatar = await nextEvent(carlFlow!, (event) => isUpdate(event) && event.additional_info.user.avatar === picture.body.file.path);
      assert.ok(withAvatar);
      assert.equal(events(carlFlow!.frames).filter(isUpdate).length, 2, 'the notification setting was not announced');
      assert.equal(events(eveFlow!.frames).filter(isUpdate).length, 0);

      // The event is in the log: a client that was away gets it on resume.
      const list = await request(server, 'GET', '/chat/list', { token: boris.token });
      assert.equal(list.body.users.find((user: any) => user.id === anna.id).name, 'Anna K.');
    } finally {
      for (const flow of flows) flow.close();
    }
  });

  it('gives the phone only to contacts who typed it in: not to one added by username, nor to a guest of their link', async () => {
    const anna = await signUp(server, { name: 'Anna' });
    await request(server, 'PUT', '/user/edit', { token: anna.token, body: { username: `anna_${anna.id}` } });
    const boris = await signUp(server, { name: 'Boris' });
    const added = await request(server, 'POST', '/user/contacts/add', { token: boris.token, body: { username: `anna_${anna.id}`, name: 'A.' } });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const code = (await request(server, 'GET', '/user', { token: anna.token })).body.user.invite_link.split('/').pop();
    const guest = await request(server, 'POST', `/user/link?code=${code}`);
    assert.equal(guest.status, 200, JSON.stringify(guest.body));
    const guestPerson = { ...anna, id: guest.body.chat.participants.find((id: number) => id !== anna.id), token: guest.body.jwt_info.access_token };
    const flows = [await openFlow(server, boris), await openFlow(server, guestPerson)];
    try {
      assert.equal((await request(server, 'PUT', '/user/edit', { token: anna.token, body: { name: 'Anna K.' } })).status, 200);
      for (const flow of flows) {
        const update = await nextEvent(flow, (event) => event.event_type === 'user-updated' && event.additional_info.user.id === anna.id);
        assert.equal(update.additional_info.user.name, 'Anna K.');
        assert.equal('phone' in update.additional_info.user, false);
      }
    } finally {
      for (const flow of flows) flow.close();
    }
  });

  it('a refused change (username taken) announces nothing', async () => {
    const anna = await signUp(server, { name: 'Anna' });
    const boris = await signUp(server, { name: 'Boris' });
    await privateChat(server, anna, boris);
    await request(server, 'PUT', '/user/edit', { token: boris.token, body: { username: 'taken_name_x' } });
    const flow = await openFlow(server, boris);
    try {
      const refused = await request(server, 'PUT', '/user/edit', { token: anna.token, body: { name: 'New', username: 'taken_name_x' } });
      assert.equal(refused.status, 409);
      await request(server, 'PUT', '/user/edit', { token: anna.token, body: { name: 'Later' } });
      const event = await nextEvent(flow, (candidate) => candidate.event_type === 'user-updated');
      assert.equal(event.additional_info.user.name, 'Later', 'the first event is the accepted change');
    } finally {
      flow.close();
    }
  });
});
