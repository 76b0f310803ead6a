// The part of @griffel/core that ./griffel-react.mjs and Fluent UI use at run time once styles are
// pre-computed and extracted: no CSS compiler. '@griffel/core' resolves here (see `griffelAliases`).
// RESET and shorthands are re-exported by @griffel/react's entry module itself.
export {
  RESET,
  shorthands,
  mergeClasses,
  createDOMRenderer,
  rehydrateRendererCache,
  __css,
  __resetCSS,
  __staticCSS,
  __styles,
  __resetStyles,
  __staticStyles,
} from 'griffel-core-implementation';
