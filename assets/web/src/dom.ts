// Small DOM helpers: elements built in code (the page's CSP allows no inline script or
// style attributes in HTML; styles set through element.style are fine).

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className = "",
  text = "",
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

export function button(className: string, text: string, onTap: () => void): HTMLButtonElement {
  const node = el("button", className, text);
  node.type = "button";
  node.addEventListener("click", (event) => {
    event.stopPropagation();
    // (a tap leaves no focus behind, keys keep theirs: a focused button that the game's
    // next step takes away made the browser work out the page's style there and then)
    if (event.detail > 0) node.blur();
    onTap();
  });
  return node;
}

export function svgNode(className: string, svg: string): HTMLElement {
  const node = el("span", className);
  node.innerHTML = svg;
  return node;
}

// words and style set only when they change: the same words set again replace the node's
// text, and the same style makes the browser work the element's style out again
export function setText(node: HTMLElement, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

// (a property by its CSS name, a custom one too)
type Styled = "transform" | "width" | "font-size" | "left" | "top" | `--${string}`;
const styled = new WeakMap<HTMLElement, Map<Styled, string>>(); // as last set
// (the style as set is kept: the browser reads it back in its own spelling)
export function setStyle(node: HTMLElement, property: Styled, value: string): void {
  let set = styled.get(node);
  if (!set) styled.set(node, (set = new Map()));
  if (set.get(property) === value) return;
  set.set(property, value);
  node.style.setProperty(property, value);
}

// `parent`'s children: those of `parts` that are on, in their order, each put in or taken
// out only when that changes
export function keep(parent: HTMLElement, parts: [HTMLElement, boolean][]): void {
  let next: HTMLElement | null = null;
  for (let i = parts.length - 1; i >= 0; i--) {
    const [node, on] = parts[i] as [HTMLElement, boolean];
    if (!on) {
      if (node.parentNode === parent) node.remove();
      continue;
    }
    if (node.parentNode !== parent || node.nextSibling !== next) parent.insertBefore(node, next);
    next = node;
  }
}

export function clear(node: HTMLElement): HTMLElement {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}
