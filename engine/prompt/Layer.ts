/** Prompt cache layers, most stable first (spec "Prompt cache layers"). */
export type Layer = 'L0' | 'L1' | 'L2' | 'L3';
