// Fluent's dark theme in its own chunk: the light theme is the default, so most pages never load it.
export { webDarkTheme } from '@fluentui/react-components';
