/** Where a slice's `list…` command stands (the traces, memory, skills and sessions slices). */
export type LoadStatus = 'idle' | 'loading' | 'ready' | 'failed';
