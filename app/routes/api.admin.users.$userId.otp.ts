import { setOtpSchema } from '~/auth/schemas.ts';
import { setUserOtp } from '~/auth/users.server.ts';
import { apiJson, methodNotAllowed, parseJsonBody, requireUuidParam } from '~/utils/api.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';

/** PUT /api/admin/users/{userId}/otp {otpEnabled}. */
export const action = apiAction({ method: 'PUT', allow: ['PUT'], permission: 'manage:users' }, async ({ actor, request, params, ip }) => {
  const userId = requireUuidParam(params.userId);
  const { otpEnabled } = await parseJsonBody(request, setOtpSchema);
  return apiJson(await setUserOtp(actor, userId, otpEnabled, { ip }));
});

export const loader = () => methodNotAllowed(['PUT']);
