/**
 * The baseline: everything, unchanged, whatever the budget. What an agent without context
 * management sends (until the provider refuses it).
 */
import type { Message } from '../../../../engine/conversation/Message';
import type { PeerAdapter } from './PeerAdapter';

export const fullHistory: PeerAdapter = {
  name: 'fullHistory',
  peer: '',
  promisesBudget: false,
  budgetBehaviour: 'ignores the budget: sends the whole conversation',
  toolPairs: 'keeps every call and result, so the pairs are exactly those of the input',
  async select(conversation: readonly Message[]): Promise<Message[]> {
    return [...conversation];
  },
};
