/** CAPTCHA (docs/contract.md, "CAPTCHA"), decorated as `fastify.captcha`. */
export interface Captcha {
  readonly provider: 'altcha' | 'turnstile' | 'hcaptcha' | 'recaptcha' | 'off';
  /**
   * Throws 400 CAPTCHA_REQUIRED when `token` is empty, 403 CAPTCHA_FAILED when it is invalid,
   * expired or already used (a token is accepted once).
   */
  verify(token: string | undefined, remoteIp: string): Promise<void>;
  /** ALTCHA only: a new challenge for the widget (GET /api/captcha/challenge). */
  challenge(): Promise<Record<string, unknown>>;
}
