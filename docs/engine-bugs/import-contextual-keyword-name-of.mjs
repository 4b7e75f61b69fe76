// The module import-contextual-keyword-name.mjs imports from.
export const of = 1;
