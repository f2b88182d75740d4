import type { PromptSegment } from './types';

/**
 * The cache's memory: one trie of segment ids per namespace, so two prompts share nodes exactly as
 * far as they share a prefix. A node at depth d stands for the prefix of segments 0..d.
 */
export class PrefixNode {
  readonly children = new Map<string, PrefixNode>();
  /**
   * The latest expiry (ms) of any cache entry at this node or below it. Expiries only grow until an
   * entry is dropped, so `liveUntil <= now` means nothing under this node is live and it can go.
   */
  liveUntil = -Infinity;
  /** Anthropic: expiry of the entry written at exactly this prefix (a breakpoint); -Infinity when none. */
  entryExpiresAt = -Infinity;
  /** Anthropic: the lifetime a use refreshes that entry to. */
  entryTtlMs = 0;
}

export class PrefixForest {
  private readonly roots = new Map<string, PrefixNode>();
  private nodes = 0;

  get namespaceCount(): number {
    return this.roots.size;
  }

  get nodeCount(): number {
    return this.nodes;
  }

  root(namespace: string): PrefixNode | undefined {
    return this.roots.get(namespace);
  }

  ensureRoot(namespace: string): PrefixNode {
    let root = this.roots.get(namespace);
    if (!root) {
      root = new PrefixNode();
      this.roots.set(namespace, root);
    }
    return root;
  }

  /** The existing nodes along `segments`' path, at most `limit` deep (shorter where the trie ends). */
  walk(root: PrefixNode | undefined, segments: readonly PromptSegment[], limit: number): PrefixNode[] {
    const path: PrefixNode[] = [];
    let node = root;
    for (let i = 0; node && i < limit; i++) {
      node = node.children.get(segments[i]!.id);
      if (node) path.push(node);
    }
    return path;
  }

  /** `path` (from `walk`) extended with new nodes to `depth`; returns the full path. */
  extend(root: PrefixNode, segments: readonly PromptSegment[], path: PrefixNode[], depth: number): PrefixNode[] {
    let node = path.length > 0 ? path[path.length - 1]! : root;
    for (let i = path.length; i < depth; i++) {
      const child = new PrefixNode();
      node.children.set(segments[i]!.id, child);
      this.nodes++;
      path.push(child);
      node = child;
    }
    return path;
  }

  /** Drops every subtree with nothing live at `now`, and expired entries on the nodes kept. */
  prune(now: number): void {
    for (const [namespace, root] of this.roots) {
      if (root.liveUntil <= now) {
        this.nodes -= countBelow(root);
        this.roots.delete(namespace);
        continue;
      }
      const stack: PrefixNode[] = [root];
      while (stack.length > 0) {
        const node = stack.pop()!;
        for (const [id, child] of node.children) {
          if (child.liveUntil <= now) {
            this.nodes -= 1 + countBelow(child);
            node.children.delete(id);
          } else {
            if (child.entryExpiresAt <= now) {
              child.entryExpiresAt = -Infinity;
              child.entryTtlMs = 0;
            }
            stack.push(child);
          }
        }
      }
    }
  }

  /** How many nodes satisfy `live` (iterative: tries can be deeper than the call stack). */
  count(live: (node: PrefixNode) => boolean): number {
    let n = 0;
    const stack: PrefixNode[] = [...this.roots.values()];
    while (stack.length > 0) {
      for (const child of stack.pop()!.children.values()) {
        if (live(child)) n++;
        stack.push(child);
      }
    }
    return n;
  }
}

/** Nodes strictly below `node`. */
function countBelow(node: PrefixNode): number {
  let n = 0;
  const stack: PrefixNode[] = [node];
  while (stack.length > 0) {
    for (const child of stack.pop()!.children.values()) {
      n++;
      stack.push(child);
    }
  }
  return n;
}
