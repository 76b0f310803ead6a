/**
 * For the frontends' component tests (import it from a vitest setup file). jsdom lays nothing out:
 * <body> measures 0 x 0 and no element has an offsetParent, which Fluent's focus manager (tabster)
 * reads as a hidden frame where nothing is displayed. Moving focus between dialogs, or closing one by
 * unmounting it, it then leaves the page marked aria-hidden, which no browser does. A measured body
 * and laid-out elements let focus management run as in the browser.
 */
document.body.getBoundingClientRect = () => DOMRect.fromRect({ x: 0, y: 0, width: 1280, height: 800 });
Object.defineProperty(HTMLElement.prototype, 'offsetParent', {
  configurable: true,
  get(this: HTMLElement) {
    return this.isConnected ? this.parentElement : null;
  },
});
