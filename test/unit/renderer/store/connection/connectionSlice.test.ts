import { describe, expect, it } from 'vitest';
import { connectionInitialState, reduceConnection, type ConnectionState } from '../../../../../renderer/store/connection/connectionSlice';
import { makeHealth } from '../../fixtures';

describe('reduceConnection', () => {
  it('starts connecting, with no transport, health or error', () => {
    expect(connectionInitialState).toEqual({ status: 'connecting', transport: null, health: null, error: null, address: null, retryInMs: null, wasOpen: false });
  });

  it('an error stays until the connection opens again', () => {
    const failed = reduceConnection(connectionInitialState, { type: 'connection.error', message: 'host gone' });
    const closed = reduceConnection(failed, { type: 'connection.status', status: 'closed' });
    expect(closed.error).toBe('host gone');
    const reconnecting = reduceConnection(closed, { type: 'connection.status', status: 'connecting' });
    expect(reconnecting.error).toBe('host gone');
    const open = reduceConnection(reconnecting, { type: 'connection.status', status: 'open' });
    expect(open).toMatchObject({ status: 'open', error: null });
  });

  it('keeps the transport when a status change does not name one', () => {
    const electron: ConnectionState = { ...connectionInitialState, transport: 'electron' };
    expect(reduceConnection(electron, { type: 'connection.status', status: 'closed' }).transport).toBe('electron');
    expect(reduceConnection(electron, { type: 'connection.status', status: 'open', transport: 'websocket' }).transport).toBe('websocket');
  });

  it('stores the health the host reported', () => {
    const health = makeHealth();
    expect(reduceConnection(connectionInitialState, { type: 'connection.health', health }).health).toBe(health);
  });

  it('[host-lost] remembers the address and that it was open, and holds when a drop retries only while closed', () => {
    let s = reduceConnection(connectionInitialState, { type: 'connection.status', status: 'connecting', transport: 'websocket', address: '127.0.0.1:4100' });
    expect(s).toMatchObject({ address: '127.0.0.1:4100', wasOpen: false });
    s = reduceConnection(s, { type: 'connection.status', status: 'closed', retryInMs: 2_000 });
    expect(s).toMatchObject({ status: 'closed', retryInMs: 2_000, wasOpen: false, address: '127.0.0.1:4100' });
    s = reduceConnection(s, { type: 'connection.status', status: 'open' });
    s = reduceConnection(s, { type: 'connection.status', status: 'refused' });
    expect(s).toMatchObject({ status: 'refused', retryInMs: null, wasOpen: true });
  });
});
