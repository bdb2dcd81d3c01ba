import { isTag, isText, type AnyNode } from 'domhandler';

/** The text of a node and its descendants, walked without recursion (pages can nest deeply). */
export function textOf(node: AnyNode): string {
  let text = '';
  const stack: AnyNode[] = [node];
  while (stack.length) {
    const current = stack.pop()!;
    if (isText(current)) text += current.data;
    else if (isTag(current) || current.type === 'root') {
      const children = (current as { children: AnyNode[] }).children;
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    }
  }
  return text;
}
