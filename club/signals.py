"""Keep /admin/ access in step with the club-admin memberships, and the cached time zone with the club, however
they are edited."""

from django.core.cache import cache
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from club.models import Club, Membership
from club.selectors import TIME_ZONE_CACHE_KEY
from club.services import sync_admin_access


@receiver(post_save, sender=Club, dispatch_uid="club_saved_time_zone")
@receiver(post_delete, sender=Club, dispatch_uid="club_deleted_time_zone")
def club_changed(sender, instance: Club, **kwargs) -> None:
    cache.delete(TIME_ZONE_CACHE_KEY)  # the next page reads the zone afresh (club.middleware_tz)


@receiver(post_save, sender=Membership, dispatch_uid="club_membership_saved")
@receiver(post_delete, sender=Membership, dispatch_uid="club_membership_deleted")
def membership_changed(sender, instance: Membership, raw: bool = False, **kwargs) -> None:
    if raw:  # loaddata: leave the fixture as it is
        return
    sync_admin_access(instance.user)
