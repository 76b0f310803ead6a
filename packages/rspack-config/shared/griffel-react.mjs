// What the apps share of @griffel/react once every style is pre-computed and its CSS extracted at
// build time (see ../griffel.mjs): class merging, the extracted-CSS lookups, the renderer and
// text-direction contexts. Not makeStyles/makeResetStyles/makeStaticStyles, whose run-time CSS
// compiler (stylis, rtl-css-js) a shared module would otherwise ship whole, since a shared module
// cannot be tree-shaken. '@griffel/react' resolves here (see `griffelAliases`); a style left for run
// time, or a name missing here, fails the build.
export {
  mergeClasses,
  createDOMRenderer,
  RendererProvider,
  useRenderer_unstable,
  TextDirectionProvider,
  __css,
  __resetCSS,
  __staticCSS,
  __styles,
  __resetStyles,
  __staticStyles,
} from 'griffel-react-implementation';
