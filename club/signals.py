"""Keep /admin/ access in step with the club-admin memberships, and the cached time zone and look with the club,
however they are edited."""

from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from club.models import Club, Membership
from club.selectors import LOOK_CACHE_KEY, TIME_ZONE_CACHE_KEY
from club.services import sync_admin_access


@receiver(post_save, sender=Club, dispatch_uid="club_saved_time_zone")
@receiver(post_delete, sender=Club, dispatch_uid="club_deleted_time_zone")
def club_changed(sender, instance: Club, **kwargs) -> None:
    # the next page reads the zone (club.middleware_tz) and the header's look (club.context_processors) afresh; again
    # after the commit, so that a page that read the old club between the two does not keep it
    keys = [TIME_ZONE_CACHE_KEY, LOOK_CACHE_KEY]
    cache.delete_many(keys)
    transaction.on_commit(lambda: cache.delete_many(keys))


@receiver(post_save, sender=Membership, dispatch_uid="club_membership_saved")
@receiver(post_delete, sender=Membership, dispatch_uid="club_membership_deleted")
def membership_changed(sender, instance: Membership, raw: bool = False, **kwargs) -> None:
    if raw:  # loaddata: leave the fixture as it is
        return
    sync_admin_access(instance.user)
