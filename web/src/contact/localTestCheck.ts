import type { RecaptchaApi, RenderParams } from './recaptchaApi';

interface Widget {
  token: string;
  checkbox: HTMLInputElement;
}

function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `local-test.${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Local mode without reCAPTCHA keys: a clearly labelled stand-in with grecaptcha's interface, so
 * the contact form runs the same code as with Google's widget. Its tokens are accepted only by
 * the contact service's local test verifier, which production never uses.
 */
export function createLocalTestCheck(): RecaptchaApi {
  const widgets: Widget[] = [];
  const widget = (id = 0): Widget => {
    const found = widgets[id];
    if (!found) throw new Error(`No test check widget ${id}`);
    return found;
  };
  return {
    render(container: HTMLElement, params: RenderParams) {
      const id = widgets.length;
      const box = document.createElement('div');
      box.className = `local-check local-check-${params.theme}`;
      const label = document.createElement('label');
      const checkbox = document.createElement('input');
      checkbox.type = 'checkbox';
      label.append(checkbox, document.createTextNode("I'm not a robot"));
      const note = document.createElement('p');
      note.className = 'local-check-note';
      note.textContent = 'Test check (local mode): not a real reCAPTCHA';
      box.append(label, note);
      container.replaceChildren(box);
      const entry: Widget = { token: '', checkbox };
      checkbox.addEventListener('change', () => { entry.token = checkbox.checked ? newToken() : ''; });
      widgets.push(entry);
      return id;
    },
    getResponse(id) {
      return widget(id).token;
    },
    reset(id) {
      const entry = widget(id);
      entry.token = '';
      entry.checkbox.checked = false;
    },
  };
}
