"""Keep /admin/ access in step with the club-admin memberships, however they are edited."""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from club.models import Membership
from club.services import sync_admin_access


@receiver(post_save, sender=Membership, dispatch_uid="club_membership_saved")
@receiver(post_delete, sender=Membership, dispatch_uid="club_membership_deleted")
def membership_changed(sender, instance: Membership, raw: bool = False, **kwargs) -> None:
    if raw:  # loaddata: leave the fixture as it is
        return
    sync_admin_access(instance.user)
