import { ProfileFieldsDto } from './profile-fields.dto';

/** Partial update: each field is applied only when supplied. Role, phone and account flags cannot be changed here. */
export class UpdateProfileDto extends ProfileFieldsDto {}
