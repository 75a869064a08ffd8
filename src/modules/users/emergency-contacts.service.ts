import { Injectable } from '@nestjs/common';
import type { EmergencyContactDto, EmergencyContactsDto } from './dto/emergency-contacts.dto';
import { UserError } from './users.errors';
import { UsersRepository } from './users.repository';

export type EmergencyContact = EmergencyContactDto;

/** A user's emergency contacts (CONTRACT §14): read and replaced whole; an SOS reads them with the raiser's first name. */
@Injectable()
export class EmergencyContactsService {
  constructor(private readonly users: UsersRepository) {}

  async get(userId: number): Promise<EmergencyContactsDto> {
    const found = await this.users.findEmergencyContacts(userId);
    if (!found) throw new UserError('USER_NOT_FOUND');
    return { contacts: found.contacts };
  }

  async replace(userId: number, contacts: readonly EmergencyContact[]): Promise<EmergencyContactsDto> {
    const kept = contacts.map((c) => ({ name: c.name.trim(), phone: c.phone }));
    if (!(await this.users.setEmergencyContacts(userId, kept))) throw new UserError('USER_NOT_FOUND');
    return { contacts: kept };
  }

  /** Whom an SOS by this user texts, and the first name it signs with; undefined for a user gone. */
  findForAlert(userId: number): Promise<{ firstName: string | null; contacts: EmergencyContact[] } | undefined> {
    return this.users.findEmergencyContacts(userId);
  }
}
