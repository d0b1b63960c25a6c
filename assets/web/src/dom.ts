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
    onTap();
  });
  return node;
}

export function svgNode(className: string, svg: string): HTMLElement {
  const node = el("span", className);
  node.innerHTML = svg;
  return node;
}

export function clear(node: HTMLElement): HTMLElement {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}
