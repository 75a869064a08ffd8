import { CreateVehicleCategories1763800000000 } from './1763800000000-create-vehicle-categories';
import { CreateUsersAndWallets1763800001000 } from './1763800001000-create-users-and-wallets';
import { CreateMarketplace1763800002000 } from './1763800002000-create-marketplace';
import { CreateTypeormMetadata1763800007000 } from './1763800007000-create-typeorm-metadata';
import { UsersFillfactor1763800008700 } from './1763800008700-users-fillfactor';
import { UsersSessionRevocation1763800009300 } from './1763800009300-users-session-revocation';
import { RidesPickupVector1763800009400 } from './1763800009400-rides-pickup-vector';
import { UsersLoginProof1763800009500 } from './1763800009500-users-login-proof';
import { RidesOfferTipSurge1763800012000 } from './1763800012000-rides-offer-tip-surge';
import { RidesPickupAt1763800013000 } from './1763800013000-rides-pickup-at';
import { RideRatings1763800014000 } from './1763800014000-ride-ratings';
import { RideShareLinks1763800014010 } from './1763800014010-ride-share-links';
import { CreateRideMessages1763800015000 } from './1763800015000-create-ride-messages';
import { CreatePayments1763800017000 } from './1763800017000-create-payments';
import { OperatorsAndAudit1763800018000 } from './1763800018000-operators-and-audit';
import { RideCardPayments1763900100000 } from './1763900100000-ride-card-payments';
import { DriverDocuments1763900200000 } from './1763900200000-driver-documents';
import { RidePin1763900300000 } from './1763900300000-ride-pin';
import { EmergencyContacts1763900300100 } from './1763900300100-emergency-contacts';
import { SosAlerts1763900300200 } from './1763900300200-sos-alerts';
import { OperatorRideCancel1763900600000 } from './1763900600000-operator-ride-cancel';

/** Every migration, oldest first. A new migration is added here as well as in this folder. */
export const MIGRATIONS = [
  CreateVehicleCategories1763800000000,
  CreateUsersAndWallets1763800001000,
  CreateMarketplace1763800002000,
  CreateTypeormMetadata1763800007000,
  UsersFillfactor1763800008700,
  UsersSessionRevocation1763800009300,
  RidesPickupVector1763800009400,
  UsersLoginProof1763800009500,
  RidesOfferTipSurge1763800012000,
  RidesPickupAt1763800013000,
  RideRatings1763800014000,
  RideShareLinks1763800014010,
  CreateRideMessages1763800015000,
  CreatePayments1763800017000,
  OperatorsAndAudit1763800018000,
  RideCardPayments1763900100000,
  DriverDocuments1763900200000,
  RidePin1763900300000,
  EmergencyContacts1763900300100,
  SosAlerts1763900300200,
  OperatorRideCancel1763900600000,
];
