/** What a sign-in code looks like on a phone and in an inbox; the code leads, so previews show it. */
export interface OtpEmail {
  subject: string;
  text: string;
  html: string;
}

export function otpSmsText(appName: string, code: string, ttlSeconds: number): string {
  return `${code} is your ${appName} sign-in code. It expires in ${minutes(ttlSeconds)}. Never share it.`;
}

export function otpEmail(appName: string, code: string, ttlSeconds: number): OtpEmail {
  const expiry = minutes(ttlSeconds);
  const text = [
    `Your ${appName} sign-in code is ${code}.`,
    '',
    `It expires in ${expiry}. Never share it: ${appName} will never ask you for it.`,
    'If you did not try to sign in, you can ignore this e-mail.',
  ].join('\n');
  const app = escapeHtml(appName);
  const html = `<!doctype html>
<html><body style="font-family:sans-serif;color:#222">
<p>Your ${app} sign-in code is</p>
<p style="font-size:28px;font-weight:bold;letter-spacing:4px">${code}</p>
<p>It expires in ${expiry}. Never share it: ${app} will never ask you for it.</p>
<p style="color:#777">If you did not try to sign in, you can ignore this e-mail.</p>
</body></html>`;
  return { subject: `${code} is your ${appName} sign-in code`, text, html };
}

function minutes(seconds: number): string {
  const n = Math.max(1, Math.round(seconds / 60));
  return n === 1 ? '1 minute' : `${n} minutes`;
}

function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
