import { api, items, problem, saveSession } from '../api.js';
import { status } from '../components.js';
import { h, show } from '../dom.js';

/** E-mail, then the code sent to it (send-otp, verify-otp); only an operator's session is kept. */
export function signInView({ notice, signedIn }) {
  const box = h('section', { class: 'card sign-in' });
  const result = status();
  if (notice) result.say(notice, 'info');

  const email = h('input', { name: 'email', type: 'email', required: true, autocomplete: 'username', placeholder: 'you@example.com' });
  const askCode = h(
    'form',
    {
      id: 'send-code',
      onsubmit: async (event) => {
        event.preventDefault();
        result.say('Sending a code…', 'busy');
        const answer = await api('POST', '/auth/send-otp', { email: email.value.trim() });
        if (!answer.ok) return result.say(problem(answer), 'error');
        result.say(`A code was sent to ${email.value.trim()}.`);
        enterCode(email.value.trim());
      },
    },
    h('label', {}, h('span', {}, 'E-mail'), email),
    h('button', { type: 'submit' }, 'Send me a code'),
  );

  function enterCode(address) {
    const code = h('input', { name: 'otp', inputMode: 'numeric', autocomplete: 'one-time-code', required: true, pattern: '[0-9]{4,10}' });
    const form = h(
      'form',
      {
        id: 'verify-code',
        onsubmit: async (event) => {
          event.preventDefault();
          result.say('Checking…', 'busy');
          const answer = await api('POST', '/auth/verify-otp', { email: address, otp: code.value.trim() });
          if (!answer.ok) return result.say(problem(answer), 'error');
          if (answer.body.user?.role !== 'operator') return result.say('This account is not an operator: the console is for operators only.', 'error');
          saveSession({ ...answer.body, email: address, user_id: answer.body.user.id });
          // The operator's role is on the operators list (every operator may read it).
          const list = await api('GET', '/admin/operators');
          const me = items(list.body).find((o) => o.id === answer.body.user.id);
          signedIn({
            access_token: answer.body.access_token,
            refresh_token: answer.body.refresh_token,
            email: address,
            user_id: answer.body.user.id,
            operator_role: me?.operator_role,
          });
        },
      },
      h('label', {}, h('span', {}, 'Code'), code),
      h('button', { type: 'submit' }, 'Sign in'),
      h('button', { type: 'button', class: 'quiet', onclick: () => show(box, title, askCode, result) }, 'Use another e-mail'),
    );
    show(box, title, h('p', {}, 'Enter the code sent to ', h('strong', {}, address), '.'), form, result);
    code.focus();
  }

  const title = h('h1', {}, 'Operator console');
  return show(box, title, h('p', { class: 'muted' }, 'Sign in with the e-mail address of your operator account.'), askCode, result);
}
