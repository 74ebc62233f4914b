// The few DOM helpers the views share. Record text is always set as text, never parsed as HTML.

/**
 * An element with attributes and children.
 * @template {string} K
 * @param {K} tag a tag of HTML, or of one of the viewer's elements (`rca-...`)
 * @param {Record<string, string>} [attributes]
 * @param {...(Node | string | null | undefined)} children
 * @returns {K extends keyof HTMLElementTagNameMap ? HTMLElementTagNameMap[K] : HTMLElement}
 */
export function h(tag, attributes = {}, ...children) {
  const element = /** @type {K extends keyof HTMLElementTagNameMap ? HTMLElementTagNameMap[K] : HTMLElement} */ (document.createElement(tag));
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'class') element.className = value;
    else element.setAttribute(name, value);
  }
  for (const child of children) if (child !== null && child !== undefined) element.append(child);
  return element;
}

/**
 * The page's link to a view.
 * @param {string[]} parts
 */
export function route(...parts) {
  return `#/${parts.map(encodeURIComponent).join('/')}`;
}

/**
 * A message in place of a view that cannot be shown.
 * @param {string} text
 */
export function problem(text) {
  return h('p', { class: 'problem', role: 'alert' }, text);
}
