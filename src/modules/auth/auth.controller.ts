import { Body, Controller, Header, Headers, HttpCode, Post, UseGuards } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiTags,
  ApiServiceUnavailableResponse,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { bearerToken, CurrentUser, Public } from '../../common/auth/auth.decorators';
import { OpenToOperators } from '../../common/auth/operator-action.decorator';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ErrorResponseDto } from '../../common/http/error-response.dto';
import { AuthService } from './auth.service';
import { LoginDto } from './dto/login.dto';
import { LogoutResponseDto } from './dto/logout-response.dto';
import { OtpSentResponseDto } from './dto/otp-sent-response.dto';
import { RefreshTokenDto } from './dto/refresh-token.dto';
import { RegisterDto } from './dto/register.dto';
import { SendOtpDto } from './dto/send-otp.dto';
import { SessionResponseDto, VerifyOtpResponseDto } from './dto/session-response.dto';
import { TokenPairResponseDto } from './dto/token-pair-response.dto';
import { VerifyOtpDto } from './dto/verify-otp.dto';
import { AuthRateLimitGuard } from './guards/auth-rate-limit.guard';
import { RegistrationService } from './services/registration.service';
import { SessionService } from './services/session.service';

const IDENTITY_400 = 'Validation failure; Either email or phone is required; Phone is required; Invalid phone number; Invalid OTP; OTP expired';
const IDENTITY_409 =
  'Phone and email belong to different accounts; Phone and email do not match one account…; ' +
  'This phone is already linked to another email address; This email is already linked to another phone number';
/** Responses that carry tokens must not be kept by any cache (CONTRACT §1, RFC 6749 §5.1). */
const NO_STORE = 'no-store';
const TOO_MANY = 'Rate limit exceeded (per IP, or per phone/e-mail for send-otp); see Retry-After';

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly registration: RegistrationService,
    private readonly sessions: SessionService,
  ) {}

  @Post('send-otp')
  @Public()
  @HttpCode(200)
  @UseGuards(AuthRateLimitGuard)
  @ApiOperation({
    summary: 'Send a one-time code to a phone and/or e-mail',
    description:
      'Creates a pending user when nobody matches. The code (6 digits, valid 5 minutes) replaces any earlier one and is ' +
      'never returned: it goes by SMS to the phone and by e-mail to the address the request names (every configured ' +
      'channel; 200 when one delivered). Outside production, a kind without a channel gets it in the server log.',
  })
  @ApiOkResponse({ type: OtpSentResponseDto })
  @ApiBadRequestResponse({
    type: ErrorResponseDto,
    description: `${IDENTITY_400}; Phone sign-in is not available; Email sign-in is not available (production, no channel for that kind)`,
  })
  @ApiServiceUnavailableResponse({
    type: ErrorResponseDto,
    description: 'Could not send the code. Please try again (the provider failed; the attempt counted towards no limit); see Retry-After',
  })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'User not found' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: IDENTITY_409 })
  @ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: TOO_MANY })
  sendOtp(@Body() body: SendOtpDto): Promise<OtpSentResponseDto> {
    return this.auth.sendOtp(body);
  }

  @Post('verify-otp')
  @Public()
  @HttpCode(200)
  @Header('Cache-Control', NO_STORE)
  @UseGuards(AuthRateLimitGuard)
  @ApiOperation({
    summary: 'Check the code; returns a session',
    description: 'is_registered false: go to register with this access token; true: go home. Enables one login within LOGIN_OTP_WINDOW_MINUTES.',
  })
  @ApiOkResponse({ type: VerifyOtpResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: IDENTITY_400 })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'Account is blocked; Account is not active' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No pending signup for this phone…; User not found' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: IDENTITY_409 })
  @ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: TOO_MANY })
  verifyOtp(@Body() body: VerifyOtpDto): Promise<VerifyOtpResponseDto> {
    return this.auth.verifyOtp(body);
  }

  @Post('register')
  @ApiBearerAuth()
  @HttpCode(200)
  @Header('Cache-Control', NO_STORE)
  @UseGuards(AuthRateLimitGuard)
  @ApiOperation({
    summary: "Complete the verified user's account",
    description: 'Bearer: the access token from verify-otp. Creates the wallet, and for drivers the driver record.',
  })
  @ApiOkResponse({ type: SessionResponseDto, description: 'Same shape as login' })
  @ApiBadRequestResponse({
    type: ErrorResponseDto,
    description:
      'Validation failure; Phone does not match the verified account; Email does not match the verified account; ' +
      'Registration failed due to duplicate or invalid data; picture not PNG/JPEG/WebP',
  })
  @ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'Missing or invalid access token' })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'Verify OTP before completing registration' })
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description: 'Account already completed — use login; Email already in use; Could not issue session tokens. Please login again',
  })
  @ApiPayloadTooLargeResponse({ type: ErrorResponseDto, description: 'Profile picture over PROFILE_PICTURE_MAX_BYTES' })
  @ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: TOO_MANY })
  register(@CurrentUser() user: AuthenticatedUser, @Body() body: RegisterDto): Promise<SessionResponseDto> {
    return this.registration.register(user.id, body);
  }

  @Post('login')
  @ApiBearerAuth()
  @Public()
  @HttpCode(200)
  @Header('Cache-Control', NO_STORE)
  @UseGuards(AuthRateLimitGuard)
  @ApiOperation({
    summary: 'Open a session after a recent verify-otp',
    description:
      'No password. Send `Authorization: Bearer <access_token>` with the access token that verify-otp returned: ' +
      'login succeeds only with that token, within LOGIN_OTP_WINDOW_MINUTES of that verify-otp, once (proof that the ' +
      'caller received the code; knowing the phone number is not enough). Otherwise 403 Verify OTP before logging in. ' +
      'Checks in order: no user (401 Invalid credentials), the proof, not active, blocked. ' +
      'email/phone are compared exactly as stored.',
  })
  @ApiOkResponse({ type: SessionResponseDto })
  @ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'Invalid credentials' })
  @ApiForbiddenResponse({
    type: ErrorResponseDto,
    description: 'Verify OTP before logging in; Account is not active; Account is blocked',
  })
  @ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: TOO_MANY })
  login(@Body() body: LoginDto, @Headers('authorization') authorization: string | undefined): Promise<SessionResponseDto> {
    return this.sessions.login(body, bearerToken(authorization));
  }

  @Post('refresh-token')
  @Public()
  @HttpCode(200)
  @Header('Cache-Control', NO_STORE)
  @ApiOperation({
    summary: 'Exchange the refresh token for a new pair',
    description:
      'The presented refresh token stops working (rotation). Presenting an already rotated refresh token of the ' +
      'current session again is treated as theft (RFC 9700 §4.14.2): 401 Invalid refresh token, and the session ' +
      'is revoked: the current refresh token and every access token issued so far stop working at once; the ' +
      'user must log in again. Two concurrent refreshes with one token therefore end the session: never refresh ' +
      'in parallel. A refresh token of an earlier login is only refused.',
  })
  @ApiOkResponse({ type: TokenPairResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Validation failure' })
  @ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'Invalid refresh token' })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'Account is not active' })
  refresh(@Body() body: RefreshTokenDto): Promise<TokenPairResponseDto> {
    return this.sessions.refresh(body.refresh_token);
  }

  @Post('logout')
  @OpenToOperators()
  @ApiBearerAuth()
  @HttpCode(200)
  @ApiOperation({
    summary: 'End the session',
    description: 'Clears the stored refresh token and device token; every access token issued so far is refused at once.',
  })
  @ApiOkResponse({ type: LogoutResponseDto })
  @ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'Missing or invalid access token' })
  async logout(@CurrentUser() user: AuthenticatedUser): Promise<LogoutResponseDto> {
    await this.sessions.logout(user.id);
    return { message: 'Logged out' };
  }
}
