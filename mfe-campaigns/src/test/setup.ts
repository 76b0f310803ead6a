import { configure } from '@testing-library/react';

// The machine is shared and Fluent's modules are many: give the queries time.
configure({ asyncUtilTimeout: 3000 });

// jsdom lays nothing out: <body> measures 0 x 0 and no element has an offsetParent, which Fluent's focus
// manager (tabster) reads as a hidden frame where nothing is displayed. Moving focus between dialogs it
// then leaves the open one marked aria-hidden, which no browser does. A measured body and laid-out
// elements let focus management run as in the browser.
document.body.getBoundingClientRect = () => DOMRect.fromRect({ x: 0, y: 0, width: 1280, height: 800 });
Object.defineProperty(HTMLElement.prototype, 'offsetParent', {
  configurable: true,
  get(this: HTMLElement) {
    return this.isConnected ? this.parentElement : null;
  },
});
