import { describe, expect, it } from 'vitest';
import { parseCall } from '../../../electron/web/webHost';

describe('parseCall', () => {
  it.each([
    ['{"id":1,"command":"health","args":{}}', { id: 1, command: 'health', args: {} }],
    ['{"id":0,"command":"listAgents"}', { id: 0, command: 'listAgents', args: undefined }],
    ['{"id":-7,"command":"getAgent","args":{"agentId":"primary"}}', { id: -7, command: 'getAgent', args: { agentId: 'primary' } }],
    ['{"id":9007199254740991,"command":"health","args":null}', { id: Number.MAX_SAFE_INTEGER, command: 'health', args: null }],
    // The command name is not checked here: the host's dispatcher answers unknown_command with the id.
    ['{"id":3,"command":"noSuchCommand","args":[1,2]}', { id: 3, command: 'noSuchCommand', args: [1, 2] }],
    ['  {"command":"health","id":4}\n', { id: 4, command: 'health', args: undefined }],
  ])('parses %s as a call', (text, call) => {
    const parsed = parseCall(text);
    expect(parsed).not.toHaveProperty('error');
    expect(parsed).toStrictEqual(call);
  });

  it.each([
    ['', null, 'not valid JSON'],
    ['{', null, 'not valid JSON'],
    ["{'id':1}", null, 'not valid JSON'],
    ['null', null, 'expected an object'],
    ['42', null, 'expected an object'],
    ['"health"', null, 'expected an object'],
    ['[1,"health",{}]', null, 'expected an object'],
    ['{"command":"health"}', null, '"id" must be an integer'],
    ['{"id":"1","command":"health"}', null, '"id" must be an integer'],
    ['{"id":1.5,"command":"health"}', null, '"id" must be an integer'],
    ['{"id":null,"command":"health"}', null, '"id" must be an integer'],
    ['{"id":9007199254740992,"command":"health"}', null, '"id" must be an integer'],
    ['{"id":1e400,"command":"health"}', null, '"id" must be an integer'],
    ['{"id":true,"command":"health"}', null, '"id" must be an integer'],
    // Only the command is bad: the id is usable, so the reply can still be matched to the call.
    ['{"id":5}', 5, '"command" must be a string'],
    ['{"id":6,"command":42}', 6, '"command" must be a string'],
    ['{"id":7,"command":null,"args":{}}', 7, '"command" must be a string'],
    ['{"id":8,"command":["health"]}', 8, '"command" must be a string'],
  ])('refuses %j with id %s', (text, id, reason) => {
    const parsed = parseCall(text);
    expect(parsed).toEqual({ id, error: expect.stringContaining(reason) });
    expect((parsed as { error: string }).error).toMatch(/^Malformed message: /);
  });

  it('refuses a binary frame (no text) with a null id', () => {
    expect(parseCall(undefined)).toEqual({ id: null, error: expect.stringContaining('binary frames are not accepted') });
  });
});
